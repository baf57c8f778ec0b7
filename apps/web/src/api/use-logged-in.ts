import { useSyncExternalStore } from "react";
import { isLoggedIn, subscribeToSession } from "./token.ts";

export function useLoggedIn(): boolean {
  return useSyncExternalStore(subscribeToSession, isLoggedIn, isLoggedIn);
}
