// Deletes the temporary project of global-setup.ts (tarball and installed package included).
import './global-setup';

export default function teardown(): void {
  globalThis.cuckooRuntimesInstall?.remove();
  globalThis.cuckooRuntimesInstall = undefined;
}
