// The page bundles the runtime's fold, whose usage sums sit beside the price look-up; the
// look-up (Node's createRequire of the price data) is never called in the page, so the
// browser build gets this stand-in for node:module instead of a Node built-in.
export function createRequire(): never {
  throw new Error('Prices are not looked up in the Studio page.');
}
