// The parts of a translation file that vite.config.ts (`translationParts`) cuts by first-paint.ts.
declare module '*.json?first-paint' {
  const texts: Record<string, unknown>;
  export default texts;
}
declare module '*.json?rest' {
  const texts: Record<string, unknown>;
  export default texts;
}
