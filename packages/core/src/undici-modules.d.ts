// undici ships types for its index only; these deep modules are typed where they are used.
declare module 'undici/lib/api/api-request.js' {
  const request: unknown;
  export default request;
}
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: unknown;
  export default Agent;
}
declare module 'undici/lib/interceptor/redirect.js' {
  const redirect: unknown;
  export default redirect;
}
