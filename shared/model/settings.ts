// Preference values shared by the core and the renderer. Kept apart from shared/ipc/settings.ts,
// whose zod schemas the renderer has no use for and should not bundle.

export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof THEMES)[number];
