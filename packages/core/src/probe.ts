/**
 * How to tell a right key from a wrong one without creating a task (the n8n credential test uses
 * it): a text-to-video request whose body breaks the spec twice (an empty prompt, 0 inference
 * steps). A gateway checks the key first: a wrong key gets 401 (403 for a key that may not use the
 * operation); a right key reaches validation, which refuses the body (400). No task is created.
 */
import { textToVideo } from './operations/text-to-video.js';

export const KEY_PROBE = Object.freeze({
  operation: textToVideo,
  body: Object.freeze({ prompt: '', num_inference_steps: 0 }),
  /** Answers that mean the key (or the address) is not usable, in words. */
  refusals: Object.freeze({
    401: 'The gateway refused the API key (HTTP 401)',
    403: 'The gateway knows the key but forbids it (HTTP 403): check the account',
    404: 'Nothing answers at this address (HTTP 404): check the base URL and the route settings',
  }),
});
