// Jest global setup of the runtime suite: the package is packed and installed
// into a fresh temporary project once, and every test file builds its apps
// in folders of that project (support/consumer.ts). Teardown deletes it.
import { packAndInstall, type InstalledPackage } from '../../support/pack';

declare global {
  // Shared with global-teardown.ts, which Jest runs in this same process.
  // eslint-disable-next-line no-var
  var cuckooRuntimesInstall: InstalledPackage | undefined;
}

export default function setup(): void {
  const started = Date.now();
  const installed = packAndInstall();
  globalThis.cuckooRuntimesInstall = installed;
  // The test workers are started after this and inherit the environment.
  process.env.CUCKOO_RUNTIMES_CONSUMER = installed.consumerDir;
  process.env.CUCKOO_RUNTIMES_TARBALL = installed.tarball;
  console.log(`\nnpm pack + install into ${installed.consumerDir}: ${Date.now() - started} ms`);
}
