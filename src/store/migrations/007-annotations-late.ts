/**
 * 005 (annotations) landed after 006 had shipped: a corpus made in between is at
 * user_version 6 and skipped 005. This runs 005 again; its statements are IF NOT EXISTS, so
 * on every other corpus it changes nothing.
 */
import { migration as annotations } from './005-annotations.js';
import type { Migration } from './types.js';

export const migration: Migration = { version: 7, name: 'annotations-late', up: (db) => annotations.up(db) };
