// Jest runs each test file in its own vm realm, whose Symbol lacks the
// Symbol.dispose that Node adds to the main realm; TypeScript's `using` needs
// it. This is the same symbol the library falls back to where it is missing.
if (Symbol.dispose === undefined) {
  Object.defineProperty(Symbol, 'dispose', { value: Symbol.for('Symbol.dispose') });
}
