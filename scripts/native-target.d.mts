// Types of native-target.mjs, for the tests that import it.
export type Platform = 'linux' | 'mac' | 'win';
export interface Target {
  platform: Platform;
  arch: string;
}
export interface Described {
  format: 'ELF' | 'Mach-O' | 'PE' | 'unknown' | 'missing';
  archs: string[];
}
export interface NativeFile {
  name: string;
  file: string;
  required: boolean;
}
export function describeBinary(file: string): Described;
export function parseTargets(argv: readonly string[], platform?: string, arch?: string): Target[];
export function nativeFiles(
  platform: Platform,
  paths?: { sqlite?: string; keytar?: string; rank?: string },
): NativeFile[];
export function targetName(target: Target): string;
export function checkNativeTargets(
  targets: readonly Target[],
  files?: (platform: Platform) => NativeFile[],
): { problems: string[]; warnings: string[] };
