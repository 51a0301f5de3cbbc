// @actions/http-client imports `{ ProxyAgent } from 'undici'` for a proxy path this action never
// takes. The build aliases 'undici' here, so the bundle does not carry (and start) all of undici.
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';

export { ProxyAgent };
