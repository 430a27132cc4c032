import { z } from 'zod';
import { event, feature, request } from './define';

export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof THEMES)[number];

export interface Settings {
  theme: ThemePreference;
}

export const DEFAULT_SETTINGS: Settings = { theme: 'system' };

export const settingsPatch = z
  .object({
    theme: z.enum(THEMES).optional(),
  })
  .strict();

export const settingsFeature = feature({
  requests: {
    'settings.get': request(z.object({}).strict()).returns<Settings>(),
    'settings.update': request(settingsPatch).returns<Settings>(),
  },
  events: {
    'settings.changed': event<Settings>(),
  },
});
