/** The differential check: our codec and @chainsafe/ssz agree on one value. */
import { expect } from 'vitest';
import { toHex, type SszType } from '@ssztree/types';
import { peerType, peerValue } from './bridge.js';

export function expectAgreement(type: SszType<unknown>, value: unknown): void {
  const peer = peerType(type);
  const theirs = peerValue(type, value);
  const bytes = type.serialize(value);
  expect(toHex(bytes), `${type.typeName} serialize`).toBe(toHex(peer.serialize(theirs)));
  expect(toHex(type.hashTreeRoot(value)), `${type.typeName} hashTreeRoot`).toBe(toHex(peer.hashTreeRoot(theirs)));
  // Past the spec's explicit byte bound (gloas' and heze's type-specific SSZ bounds, e.g. a signed
  // inclusion list) the bytes are not a valid message of the type: ours refuses them, before decoding.
  if (bytes.length > type.byteBound) {
    expect(() => type.deserialize(bytes), `${type.typeName} deserialize past the byte bound`).toThrow(/^BOUND_EXCEEDED/);
    return;
  }
  // Each side decodes the other's bytes back to the same value.
  expect(type.equals(type.deserialize(bytes), value), `${type.typeName} deserialize`).toBe(true);
  expect(toHex(peer.serialize(peer.deserialize(bytes))), `${type.typeName} peer round trip`).toBe(toHex(bytes));
}
