// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IGroth16Verifier, ShieldedPool} from "../ShieldedPool.sol";
import {IHasher} from "../MerkleTreeWithHistory.sol";

/// Test-only: the real pool plus a way to push insertions without proofs, so a test can age a
/// root past the 100-root window in seconds. Never deployed by the devnet or in production.
contract ShieldedPoolHarness is ShieldedPool {
    constructor(IGroth16Verifier _verifier, IHasher _hasher, uint32 _levels) ShieldedPool(_verifier, _hasher, _levels) {}

    function insertPairForTest(uint256 left, uint256 right) external {
        _insertPair(left, right);
    }
}
