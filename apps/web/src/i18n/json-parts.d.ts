// The parts of a translation file that vite.config.ts (`translationParts`) cuts by first-paint.ts, and
// of the desk's by features/staff/i18n/inbox-texts.ts.
declare module '*.json?first-paint' {
  const texts: Record<string, unknown>;
  export default texts;
}
declare module '*.json?rest' {
  const texts: Record<string, unknown>;
  export default texts;
}
declare module '*.json?desk-inbox' {
  const texts: Record<string, unknown>;
  export default texts;
}
declare module '*.json?desk-rest' {
  const texts: Record<string, unknown>;
  export default texts;
}
