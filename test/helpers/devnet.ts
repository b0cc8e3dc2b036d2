// Starts the real local chain stack (anvil + EntryPoint v0.8 + SimpleAccountFactory + pool + test
// ERC-20, and Alto unless `bundler: false`) for one test file; `stop()` ends every process by pid.
export {
  startDevnet,
  deployPool,
  deployAccountAbstraction,
  deployContract,
  startAnvil,
  devKeys,
  readArtifact,
  type Devnet,
  type DevnetOptions,
  type DevnetWallet,
} from '../../circuits/scripts/devnet-lib.js';
