/** Whether a view covers the whole of its memory, which can then be moved (transferred) rather than copied. */
export function ownsItsMemory(bytes: Uint8Array): bytes is Uint8Array<ArrayBuffer> {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
}
