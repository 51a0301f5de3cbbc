/** `@mediagw/emulator`: a local stand-in for the media gateway, for demos and tests. */

export { formatEmulatorBanner } from './banner.js';
export type { EmulatorContext, OperationRoute, Received } from './context.js';
export type { Answer, ImageSummary, RecordedRequest, UploadSummary } from './exchange.js';
export { FAULT_HEADER, type Fault, parseFaultHeader } from './faults.js';
export { type Download, FILES_PATH, SAMPLE_VIDEO } from './files.js';
export type {
  BlendNotification,
  HeldNotifications,
  Notification,
  NotificationAttempt,
  NotificationStatus,
} from './notify.js';
export { defaultRoutes, type Emulator, type EmulatorOptions, type Endpoint, startEmulator } from './server.js';
