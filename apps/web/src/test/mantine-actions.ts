// Driving Mantine's dropdowns the way a user does.
import { screen, waitFor, within } from "@testing-library/react";
import type userEvent from "@testing-library/user-event";

/** Opens a Mantine select or multi-select and clicks one of its own options. */
export async function pickOption(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, name: string) {
  await user.click(input);
  const listId = await waitFor(() => {
    const id = input.getAttribute("aria-controls");
    if (!id || !document.getElementById(id)) throw new Error("the option list is not open");
    return id;
  });
  const list = document.getElementById(listId) as HTMLElement;
  await user.click(within(list).getByRole("option", { name, hidden: true }));
}

/**
 * Opens an action menu and picks an item. The item is looked up including hidden elements: on a
 * loaded machine Mantine's opening transition can keep the dropdown styled as hidden for a while,
 * yet the item is already there and clickable.
 */
export async function chooseMenuItem(
  user: ReturnType<typeof userEvent.setup>,
  button: HTMLElement,
  name: string,
) {
  await user.click(button);
  await user.click(await screen.findByRole("menuitem", { name, hidden: true }));
}
