import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { readMeta, writeMeta } from './database.js';

const META_NAME = 'secret_box_key';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Encrypts secrets at rest (AES-256-GCM) with a random key kept in this emulator's database. */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

function keyOf(db: Database.Database): Buffer {
  const stored = readMeta(db, META_NAME);
  if (stored) return Buffer.from(stored, 'base64');
  const key = randomBytes(32);
  writeMeta(db, META_NAME, key.toString('base64'));
  return key;
}

export function secretBox(db: Database.Database): SecretBox {
  return boxWithKey(keyOf(db));
}

/** The same sealing with a key of the caller's (32 bytes): a state export's secrets (src/emulator/saved-state). */
export function boxWithKey(key: Buffer): SecretBox {
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed) {
      const raw = Buffer.from(sealed, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
