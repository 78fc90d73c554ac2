// The core's facts, read from the module rather than restated here
// (bindings/facts_exports.cpp): what a status means, the error code it
// becomes, the options it is about, and each option's rule and default.

import type { Address } from './core-exports.js';
import { writeUtf8 } from './items.js';
import type { Runtime } from './runtime.js';

/** The core's sentence for a status. */
export function statusText(runtime: Runtime, status: number): string {
  return runtime.text(runtime.core.status_text(status));
}

/** The FormatError code of a byte-format status, '' for any other status. */
export function statusFormatCode(runtime: Runtime, status: number): string {
  return runtime.text(runtime.core.status_format_code(status));
}

/** The CuckooFilterError code of a status that is neither a parameter's nor the format's (INCOMPATIBLE), or ''. */
export function statusErrorCode(runtime: Runtime, status: number): string {
  return runtime.text(runtime.core.status_error_code(status));
}

/** The options (comma-separated) whose values a parameter status is about, or ''. */
export function statusOptions(runtime: Runtime, status: number): string {
  return runtime.text(runtime.core.status_options(status));
}

/** The core's sentence for what `option` must be, "<option> must be ...", or ''. */
export function optionRule(runtime: Runtime, option: string): string {
  return runtime.text(runtime.core.option_rule(optionName(runtime, option)));
}

/** The value `option` takes when a call leaves it out, or NaN when it must be given. */
export function optionDefault(runtime: Runtime, option: string): number {
  return runtime.core.option_default(optionName(runtime, option));
}

/** `option` written NUL-terminated to the scratch block, where the core's option calls read it. */
function optionName(runtime: Runtime, option: string): Address {
  const length = writeUtf8(option, runtime.u8, runtime.scratch);
  runtime.u8[runtime.scratch + length] = 0;
  return runtime.scratch;
}
