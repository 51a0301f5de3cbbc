/**
 * Text that came from the gateway is data, never control: before it reaches a terminal, a log or a
 * workflow command it loses escape sequences, line breaks and other control characters.
 */

/** ANSI/VT escape sequences: CSI (`ESC [ ... final`), OSC (`ESC ] ... BEL|ST`), and two-byte escapes. */
const ESCAPES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])|\u009b[0-?]*[ -/]*[@-~]/g;
/** C0 and C1 controls, DEL, line/paragraph separators and bidi overrides (they can disguise text). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;

/** Whether a text holds an escape sequence or a control character. */
export function hasControlCharacters(text: string): boolean {
  CONTROLS.lastIndex = 0;
  return CONTROLS.test(text);
}

/** One line of plain text: escapes removed, every run of control characters a single space. */
export function plainText(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, ' ');
}

/** A value as an error message may quote it; never throws (hostile toString, cycles, bigints). */
export function show(value: unknown): string {
  if (typeof value === 'string') {
    const text = plainText(value);
    return `"${text.length > 80 ? `${text.slice(0, 80)}...` : text}"`;
  }
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return value === null ? 'null' : `a value of type ${Array.isArray(value) ? 'array' : typeof value}`;
}

/** `notifyHook` -> `notify-hook`, `num_inference_steps` -> `num-inference-steps`: the one spelling rule for flags and inputs. */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

/** `image-to-video` -> `imageToVideo`, `negative_prompt` -> `negativePrompt` (identifiers such as n8n's operation values). */
export function camelCase(name: string): string {
  return kebabCase(name).replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `negative_prompt` -> `Negative Prompt`, `MAIN_JOURNEY` -> `Main Journey`, `notifyHook` -> `Notify Hook`. */
export function titleCase(name: string): string {
  return kebabCase(name)
    .split('-')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
