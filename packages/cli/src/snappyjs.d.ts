// snappyjs 0.7 ships no types; only the compressor is used (the decoder is ours, see snappy.ts).
declare module 'snappyjs' {
  const snappy: { compress(input: Uint8Array): Uint8Array };
  export default snappy;
}
