/**
 * Routes. The spec writes vendor path segments as neutral words in braces; each is a setting whose
 * default is that word. A route is a template of literal segments and settings.
 */

export interface RouteSettings {
  /** `{video_vendor}` in `/{video_vendor}/m2v_16_img2video_10s`. */
  videoVendor: string;
  /** `{service_prefix}` in `/{service_prefix}/submit/{text_video_model}`. */
  servicePrefix: string;
  /** `{text_video_model}`; a call may override it with `model`. */
  textVideoModel: string;
  /** `{image_relax_prefix}` in `/{image_relax_prefix}/submit/blend`. */
  imageRelaxPrefix: string;
  /** Name of the blend secret header (`img-api-secret` in the spec). */
  secretHeader: string;
}

export type RouteSetting = Exclude<keyof RouteSettings, 'secretHeader'>;

export const DEFAULT_ROUTES: Readonly<RouteSettings> = Object.freeze({
  videoVendor: 'video_vendor',
  servicePrefix: 'service_prefix',
  textVideoModel: 'text_video_model',
  imageRelaxPrefix: 'image_relax_prefix',
  secretHeader: 'img-api-secret',
});

/** A route: literal segments and `{ setting }` placeholders, in order. */
export type RouteTemplate = readonly (string | { readonly setting: RouteSetting })[];

const SEGMENT = /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;
export const SEGMENT_RULE = 'letters, digits, . _ ~ - (and / between segments), not . or ..';

/** Whether a text is usable as one or more path segments (no traversal, nothing to escape). */
export function isSegment(value: unknown): value is string {
  return typeof value === 'string' && SEGMENT.test(value) && !value.split('/').some((p) => p === '.' || p === '..');
}

/** The path of a route under the given settings, `/`-joined, with per-call overrides of settings. */
export function routePath(
  template: RouteTemplate,
  settings: Readonly<Record<RouteSetting, string>>,
  overrides: Partial<Record<RouteSetting, string>> = {},
): string {
  return template.map((s) => (typeof s === 'string' ? s : (overrides[s.setting] ?? settings[s.setting]))).join('/');
}

/** The settings a route uses, in order. */
export function routeSettings(template: RouteTemplate): RouteSetting[] {
  return template.flatMap((s) => (typeof s === 'string' ? [] : [s.setting]));
}
