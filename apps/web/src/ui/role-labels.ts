// How a role number is shown: its translated name and its badge colour.

export function roleKey(role: number): string {
  return `roles.r${role}`;
}

export const ROLE_COLORS: Record<number, string> = {
  1: "grape",
  2: "blue",
  3: "teal",
  4: "orange",
  5: "gray",
};
