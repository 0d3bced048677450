/**
 * Wrong inputs for the CLI, of any size, built without costing their size in
 * disk: sparse files of zeros (ftruncate), a mainnet state past 4 GiB whose
 * layout is right (a sparse hole of zero validators), a framed snappy
 * stream of 64 KiB zero chunks (written for real: about 3 KB per chunk).
 * Shared by packages/cli/test/largeInputs.test.ts and bench/cli-inputs.ts.
 */
/// <reference path="../src/snappyjs.d.ts" />
// (the reference: projects that compile this file from outside the CLI's own, such as bench/, see snappyjs's types too)
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { mainnet } from '@ssztree/types/consensus';
import { encodeFramed } from '../src/index.js';

export const GiB = 2 ** 30;

/** A sparse file of `size` zero bytes, with `parts` written at their offsets. */
export function sparse(dir: string, name: string, size: number, parts: [number, Uint8Array][] = []): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  try {
    ftruncateSync(fd, size);
    for (const [at, bytes] of parts) writeSync(fd, bytes, 0, bytes.length, at);
  } finally {
    closeSync(fd);
  }
  return path;
}

/**
 * A mainnet electra BeaconState past 4 GiB whose layout is right: the
 * default state's bytes with a hole of zero validators (121 bytes each)
 * where its validators go, the offsets after them moved past the hole (all
 * below 2^32, as SSZ offsets must be), and its last list,
 * pending_consolidations, grown past 2^32 by 2^18 zero elements.
 */
export function stateWithLayoutPast4GiB(dir: string, name: string): { path: string; size: number } {
  const S = mainnet.electra.BeaconState;
  const bytes = S.serialize(S.defaultValue());
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const validatorSize = mainnet.electra.Validator.fixedSize as number;
  const last = 2 ** 18 * 16;
  const shift = Math.floor((2 ** 32 - 2 ** 20 - bytes.length) / validatorSize) * validatorSize;
  let pos = 0;
  let after = false;
  let validatorsAt = -1;
  for (const [field, type] of Object.entries(S.fields)) {
    if (type.fixedSize === null) {
      if (after) dv.setUint32(pos, dv.getUint32(pos, true) + shift, true);
      if (field === 'validators') {
        validatorsAt = dv.getUint32(pos, true);
        after = true;
      }
    }
    pos += type.fixedSize ?? 4;
  }
  const total = bytes.length + shift + last;
  return { path: sparse(dir, name, total, [[0, bytes.subarray(0, validatorsAt)], [validatorsAt + shift, bytes.subarray(validatorsAt)]]), size: total };
}

/** A framed snappy stream of `chunks` chunks of 64 KiB zeros each, written for real. */
export function framedZeros(dir: string, name: string, chunks: number): string {
  const one = encodeFramed(new Uint8Array(65536));
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, one.subarray(0, 10));
    const body = one.subarray(10);
    const batch = new Uint8Array(body.length * 256);
    for (let i = 0; i < 256; i++) batch.set(body, i * body.length);
    for (let i = 0; i < chunks / 256; i++) writeSync(fd, batch);
  } finally {
    closeSync(fd);
  }
  return path;
}
