import { z } from 'zod';
import { event, feature, request } from './define';

import { THEMES, type ThemePreference } from '../model/settings';

export { THEMES, type ThemePreference };

export interface Settings {
  theme: ThemePreference;
  /** The service base URL; absent or null means the real service. --service-url / CITEWISE_SERVICE_URL win over it. */
  serviceUrl?: string | null;
}

export const DEFAULT_SETTINGS: Settings = { theme: 'system' };

/** An absolute http(s) URL without user info, query or fragment (a key must never ride in a URL). */
export function isServiceUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}

export const settingsPatch = z
  .object({
    theme: z.enum(THEMES).optional(),
    serviceUrl: z
      .string()
      .max(2048)
      .refine(isServiceUrl, 'must be an http:// or https:// address without a user name, query or fragment')
      .nullable()
      .optional(),
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
