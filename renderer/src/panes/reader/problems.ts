// What the reader says when a file cannot be shown: pdf.js's exceptions (by name: they cross from its
// worker as plain objects) and the core's refusals of a range, in words for the person reading.

export class ReadError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ReadError';
  }
}

/** What to tell the reader when pdf.js cannot open a file. */
export function openProblem(err: unknown, name: string): string {
  const kind = (err as { name?: string } | null)?.name;
  if (kind === 'PasswordException')
    return `${name} is protected with a password, which Citewise's reader cannot open yet. Open it in another PDF program, or save a copy without the password and attach that.`;
  if (kind === 'InvalidPDFException' || kind === 'FormatError')
    return `${name} is damaged: it is not a readable PDF (${(err as Error).message}). Download or export it again and attach the new copy.`;
  if (kind === 'MissingPDFException' || kind === 'UnexpectedResponseException')
    return `${name} could not be read: ${(err as Error).message}`;
  if (err instanceof ReadError) return err.message;
  return `${name} could not be opened: ${err instanceof Error ? err.message : String(err)}`;
}
