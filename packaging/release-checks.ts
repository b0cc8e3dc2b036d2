// Release gates run by .github/workflows/release.yml (they need a real Electron build):
//   abi <dir>                       every .node under <dir> matches the pinned Electron (exit 1 if not)
//   fuses <executable> <release|test>  the packaged binary's fuses are what that kind of build must have
import electronFuses from '@electron/fuses'; // CommonJS: named imports do not survive ESM interop

const { FuseState, FuseV1Options, getCurrentFuseWire } = electronFuses;
type FuseState = electronFuses.FuseState;
type FuseV1Options = electronFuses.FuseV1Options;
import { checkNativeAbis, formatAbiReport, pinnedElectronVersion } from './abi';

async function main(): Promise<number> {
  const [command, target, kind] = process.argv.slice(2);
  if (command === 'abi' && target) {
    const report = checkNativeAbis(target, pinnedElectronVersion());
    console.log(formatAbiReport(report));
    return report.ok && report.modules.length > 0 ? 0 : 1;
  }
  if (command === 'fuses' && target && (kind === 'release' || kind === 'test')) {
    const wire = await getCurrentFuseWire(target);
    const expected: [FuseV1Options, FuseState][] = [
      [FuseV1Options.RunAsNode, FuseState.DISABLE],
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable, FuseState.DISABLE],
      [FuseV1Options.OnlyLoadAppFromAsar, FuseState.ENABLE],
      // Playwright drives test builds through the inspector; a release must not accept it.
      [FuseV1Options.EnableNodeCliInspectArguments, kind === 'test' ? FuseState.ENABLE : FuseState.DISABLE],
    ];
    let ok = true;
    for (const [fuse, state] of expected) {
      const actual = wire[fuse];
      const good = actual === state;
      ok &&= good;
      console.log(`${good ? 'ok      ' : 'WRONG   '} ${FuseV1Options[fuse]}: ${FuseState[actual as FuseState] ?? actual} (want ${FuseState[state]})`);
    }
    return ok ? 0 : 1;
  }
  console.error('usage: release-checks abi <dir> | fuses <electron executable> <release|test>');
  return 2;
}

process.exitCode = await main();
