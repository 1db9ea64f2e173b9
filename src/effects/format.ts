/**
 * `debugPrint`'s formatting: Python's `str.format` subset that `jax.debug.print` users write —
 * `{}` (next argument), `{0}` (argument by position) and `{{` / `}}` for literal braces — with
 * tensors shown by their values.
 */
import { fail } from '../checks.js';
import { KeyArray } from '../random/key-array.js';
import { Tensor } from '../tensor/tensor.js';

/** At most this many elements of a tensor are shown; larger tensors are summarised. */
const MAX_ELEMENTS = 1000;

function showNumber(x: number | bigint | boolean): string {
  return typeof x === 'bigint' ? `${x}` : String(x);
}

/**
 * How `debugPrint` shows one value: tensors as nested brackets of their values (NumPy-like
 * `[[1, 2], [3, 4]]`; a scalar tensor as its value), keys by their implementation and shape,
 * strings as they are, and anything else as JSON where possible.
 *
 * @example
 * renderValue(tensor([[1, 2], [3, 4]])); // '[[1, 2], [3, 4]]'
 * renderValue(tensor(0.5));              // '0.5'
 */
export function renderValue(x: unknown): string {
  if (x instanceof Tensor) {
    if (x.size > MAX_ELEMENTS) return `Tensor(${x.dtype}, [${x.shape.join(', ')}]) (${x.size} elements)`;
    const show = (v: unknown): string => (Array.isArray(v) ? `[${v.map(show).join(', ')}]` : showNumber(v as number));
    return show(x.toArray());
  }
  if (x instanceof KeyArray) return String(x);
  if (typeof x === 'string') return x;
  if (typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean' || x === undefined || x === null) return String(x);
  if (Array.isArray(x)) return `[${x.map(renderValue).join(', ')}]`;
  try {
    return JSON.stringify(x, (_, v: unknown) => (typeof v === 'bigint' ? `${v}` : v instanceof Tensor ? renderValue(v) : v)) ?? String(x);
  } catch {
    return String(x);
  }
}

/**
 * Fills `format`'s fields with `args`: `{}` takes the next argument, `{i}` argument i, and `{{`
 * / `}}` are literal braces. Automatic and manual numbering cannot be mixed (as in Python).
 *
 * @throws RangeError naming `fn` for a field past the last argument, an unmatched brace, or
 *   mixed numbering; TypeError for a field that is neither empty nor an index.
 * @example
 * formatDebug('effects.debugPrint', 'x = {}, y = {1}', [1, 2]); // throws: mixed numbering
 * formatDebug('effects.debugPrint', 'x = {}, y = {}', [1, tensor([2, 3])]); // 'x = 1, y = [2, 3]'
 */
export function formatDebug(fn: string, format: string, args: readonly unknown[]): string {
  let out = '';
  let auto = 0;
  let mode: 'auto' | 'manual' | undefined;
  for (let i = 0; i < format.length; i++) {
    const ch = format[i]!;
    if (ch === '}') {
      if (format[i + 1] !== '}') fail('range', fn, 'format', 'has a single `}`; write `}}` for a literal brace', format);
      out += '}';
      i++;
      continue;
    }
    if (ch !== '{') { out += ch; continue; }
    if (format[i + 1] === '{') { out += '{'; i++; continue; }
    const close = format.indexOf('}', i);
    if (close < 0) fail('range', fn, 'format', 'has a `{` with no closing `}`', format);
    const field = format.slice(i + 1, close);
    let index: number;
    if (field === '') {
      if (mode === 'manual') fail('range', fn, 'format', 'mixes automatic `{}` and numbered `{i}` fields', format);
      mode = 'auto';
      index = auto++;
    } else {
      if (!/^\d+$/.test(field)) fail('type', fn, 'format', `has a field \`{${field}}\`; fields are \`{}\` or \`{i}\``, format);
      if (mode === 'auto') fail('range', fn, 'format', 'mixes automatic `{}` and numbered `{i}` fields', format);
      mode = 'manual';
      index = Number(field);
    }
    if (index >= args.length) fail('range', fn, 'format', `refers to argument ${index} but ${args.length} were given`, format);
    out += renderValue(args[index]);
    i = close;
  }
  return out;
}
