/** The page's one content element, a query helper, and what a page undoes when it is left. */
export const $ = <T extends HTMLElement = HTMLElement>(selector: string, root: ParentNode = document): T => root.querySelector(selector) as T;
export const page = $("#page");

const cleanups: (() => void)[] = [];
/** Runs `f` when the reader leaves the page drawn now (timers, listeners, charts). */
export const onLeave = (f: () => void): void => void cleanups.push(f);
export function leavePage(): void {
  for (const f of cleanups.splice(0)) f();
}
