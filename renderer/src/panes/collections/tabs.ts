// Arrow keys, Home and End move between the tabs of a tablist (the ARIA tabs pattern), selecting as
// they go; each tab's element id is `tab-<name>`.
export function onTabKeydown<T extends string>(
  event: KeyboardEvent,
  tabs: readonly T[],
  current: T,
  select: (tab: T) => void,
): void {
  const i = tabs.indexOf(current);
  let next: number;
  if (event.key === 'ArrowRight') next = (i + 1) % tabs.length;
  else if (event.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = tabs.length - 1;
  else return;
  event.preventDefault();
  const tab = tabs[next]!;
  select(tab);
  document.getElementById(`tab-${tab}`)?.focus();
}
