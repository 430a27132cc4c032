import type Database from 'better-sqlite3';
import { m0001Settings } from './0001-settings';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

/** Every migration, one file each; a test migrates a populated database through each of them. */
export const migrations: readonly Migration[] = [m0001Settings];
