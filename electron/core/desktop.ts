// The desktop edge: what only a desktop shell can do for the core — native save and open dialogs, and
// opening a file with the application the OS associates with it. The Electron shell passes one built on
// `dialog` and `shell`; browser mode, the CLI and tests pass none, and the core says so instead.
export interface SaveDialogOptions {
  title: string;
  defaultPath?: string;
  filters: { name: string; extensions: string[] }[];
}

export interface OpenDialogOptions {
  title: string;
  filters: { name: string; extensions: string[] }[];
  /** Several files may be chosen at once. */
  multiple: boolean;
}

export interface DesktopShell {
  /** The chosen path, or null when the user cancelled. */
  chooseSaveFile(options: SaveDialogOptions): Promise<string | null>;
  /** The chosen files' full paths, or null when the user cancelled. */
  chooseOpenFiles(options: OpenDialogOptions): Promise<string[] | null>;
  /** Opens a local file with its default application; resolves with an error message, '' on success. */
  openPath(path: string): Promise<string>;
}
