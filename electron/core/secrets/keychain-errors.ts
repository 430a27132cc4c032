// Keychain failures turned into a short, fixed reason for the user. The raw text from keytar,
// libsecret, D-Bus or the OS is only matched against, never passed on: it can hold paths, account
// names or, from a careless backend, the very key that was being stored.

export type KeychainFailure = 'no-service' | 'locked' | 'denied' | 'no-library' | 'timeout' | 'unknown';

const WHY: Record<KeychainFailure, string> = {
  'no-service': 'no Secret Service is running',
  locked: 'the keychain is locked',
  denied: 'access to the keychain was denied',
  'no-library': 'the keychain library could not be loaded',
  timeout: 'the keychain did not answer in time',
  unknown: 'the keychain reported an error',
};

export function describeFailure(failure: KeychainFailure): string {
  return WHY[failure];
}

/** Thrown by our own timeout, so that it is told apart from anything a keychain throws. */
export class KeychainTimeout extends Error {
  constructor() {
    super('keychain timeout');
    this.name = 'KeychainTimeout';
  }
}

// Order matters: a failed unlock prompt on Linux mentions a D-Bus spawn error too.
const PATTERNS: [KeychainFailure, RegExp][] = [
  // libsecret with no default collection and no prompter (headless), a dismissed prompt,
  // macOS errSecInteractionNotAllowed / errSecAuthFailed.
  [
    'locked',
    /\block|unlock|prompt|dismiss|cancel|interaction is not allowed|passphrase|collection\/|no such (?:collection|object)|object does not exist/i,
  ],
  ['denied', /denied|not authori[sz]ed|not permitted|permission/i],
  // No session bus, or nothing on it that provides org.freedesktop.secrets.
  [
    'no-service',
    /could not connect|cannot autolaunch|failed to connect|connection refused|no such file or directory|dbus_session_bus_address|serviceunknown|namehasnoowner|not provided by any \.service|noserver|disconnected|no reply/i,
  ],
];

export function classifyFailure(err: unknown): KeychainFailure {
  if (err instanceof KeychainTimeout) return 'timeout';
  let text: string;
  try {
    text = err instanceof Error ? `${err.name} ${err.message}` : String(err);
  } catch {
    return 'unknown';
  }
  for (const [failure, pattern] of PATTERNS) {
    if (pattern.test(text)) return failure;
  }
  return 'unknown';
}
