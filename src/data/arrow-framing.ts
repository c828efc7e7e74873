/**
 * The framing of an Arrow IPC file checked before apache-arrow reads it (see data/arrow-metadata.ts
 * for why): the stream format's messages one after another (continuation marker, metadata length,
 * metadata, body), or the file format's magic, footer and the messages its blocks point at. Each
 * length must fit in what the file holds, each message's metadata passes checkMessage, and the
 * footer checkFooter; only metadata is read, bodies are skipped.
 */

import { ArrowDamage, checkFooter, checkMessage, type MessageInfo } from './arrow-metadata.js';

/** Bytes from the file: a random-access read of `length` bytes at `position` (fewer at the end). */
export type ReadAt = (position: number, length: number) => Promise<Uint8Array>;

const MAGIC = 'ARROW1';
/** The file format's start: magic and two bytes of padding. */
const FILE_HEAD = 8;
/** The file format's end: the footer's length (int32) and the magic. */
const FILE_TAIL = 10;
const CONTINUATION = -1;

function damaged(reason: string): never {
  throw new ArrowDamage(reason);
}

function int32(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(at, true);
}

function isMagic(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && String.fromCharCode(...bytes.subarray(0, MAGIC.length)) === MAGIC;
}

/** The message framed at `position`: its metadata checked; `undefined` at the end-of-stream marker. */
async function messageAt(
  read: ReadAt,
  position: number,
  size: number,
): Promise<{ info: MessageInfo; next: number } | undefined> {
  const head = await read(position, 8);
  if (head.length === 0) return undefined; // a stream read forwards ends without its marker
  if (head.length < 4) damaged(`a message at byte ${position} is cut short`);
  let prefix = 4;
  let length = int32(head, 0);
  if (length === CONTINUATION) {
    if (head.length < 8) damaged(`a message at byte ${position} is cut short`);
    prefix = 8;
    length = int32(head, 4);
  }
  if (length === 0) return undefined;
  const start = position + prefix;
  if (length < 0 || start + length > size)
    damaged(`the message at byte ${position} declares ${length} bytes of metadata where ${size - start} remain`);
  const what = `the message at byte ${position}`;
  const info = checkMessage(await read(start, length), size - start - length, what);
  return { info, next: start + length + info.bodyLength };
}

/** The stream format: every message from the start to the end-of-stream marker or the file's end. */
async function checkStream(read: ReadAt, size: number): Promise<void> {
  let position = 0;
  let first = true;
  while (position < size) {
    const message = await messageAt(read, position, size);
    if (!message) return;
    if (first && message.info.header !== 'schema') damaged('the stream does not start with a schema');
    first = false;
    position = message.next;
  }
  if (first) damaged('no schema');
}

/** The file format: magic at both ends, the footer, and each block's message inside the file. */
async function checkFile(read: ReadAt, size: number): Promise<void> {
  if (size < FILE_HEAD + FILE_TAIL) damaged('the file is cut short');
  const tail = await read(size - FILE_TAIL, FILE_TAIL);
  if (!isMagic(tail.subarray(4))) damaged('the file is cut short (no closing ARROW1 magic)');
  const footerLength = int32(tail, 0);
  const footerStart = size - FILE_TAIL - footerLength;
  if (footerLength <= 0 || footerStart < FILE_HEAD)
    damaged(`a footer of ${footerLength} bytes in a file of ${size} bytes`);
  const blocks = checkFooter(await read(footerStart, footerLength), 'the footer');
  for (const [k, block] of blocks.entries()) {
    const { offset, metaLength, bodyLength } = block;
    if (!(offset >= FILE_HEAD && metaLength > 0 && bodyLength >= 0 && offset + metaLength + bodyLength <= footerStart))
      damaged(`block ${k + 1} of the footer lies outside the file`);
    // apache-arrow reads the message at the block's offset and then the body that message declares.
    const message = await messageAt(read, offset, footerStart);
    if (!message) damaged(`block ${k + 1} of the footer points at an end-of-stream marker`);
  }
}

/**
 * Check an Arrow IPC file (file or stream format) of `size` bytes; throws {@link ArrowDamage}
 * naming what is wrong. Reads metadata only: a few bytes per message and the footer.
 */
export async function checkArrowFraming(read: ReadAt, size: number): Promise<void> {
  if (isMagic(await read(0, MAGIC.length))) await checkFile(read, size);
  else await checkStream(read, size);
}

/** A {@link ReadAt} over bytes in memory. */
export function readFromBytes(bytes: Uint8Array): ReadAt {
  return async (position, length) => bytes.subarray(position, position + length);
}

/**
 * A {@link ReadAt} over a stream of chunks, read forwards only (each read at or after the end of
 * the previous one; the bytes between are skipped, not kept).
 */
export function readForwards(chunks: AsyncIterable<Uint8Array>): ReadAt {
  const iterator = chunks[Symbol.asyncIterator]();
  let pending: Uint8Array = new Uint8Array(0);
  let pendingAt = 0;
  let ended = false;
  const more = async (): Promise<boolean> => {
    if (ended) return false;
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      return false;
    }
    pendingAt += pending.length;
    pending = next.value;
    return true;
  };
  return async (position, length) => {
    while (position >= pendingAt + pending.length) if (!(await more())) return new Uint8Array(0);
    const parts: Uint8Array[] = [];
    let got = 0;
    let from = position - pendingAt;
    while (got < length) {
      const part = pending.subarray(from, from + length - got);
      parts.push(part);
      got += part.length;
      from = 0;
      if (got < length && !(await more())) break;
    }
    const out = new Uint8Array(got);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  };
}
