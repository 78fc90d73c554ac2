// Jest runs each test file in its own vm realm, whose Symbol lacks the
// Symbol.dispose and Symbol.asyncDispose that Node adds to the main realm;
// TypeScript's `using` and `await using` need them. These are the same
// symbols the library falls back to where they are missing.
if (Symbol.dispose === undefined) {
  Object.defineProperty(Symbol, 'dispose', { value: Symbol.for('Symbol.dispose') });
}
if (Symbol.asyncDispose === undefined) {
  Object.defineProperty(Symbol, 'asyncDispose', { value: Symbol.for('Symbol.asyncDispose') });
}
