// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MerkleZeros} from "./MerkleZeros.sol";

/// Poseidon(2) with circomlib's parameters; the deployed code comes from circomlibjs's
/// poseidonContract generator (hand-optimised EVM assembly, the cheapest measured here).
interface IHasher {
    function poseidon(uint256[2] calldata inputs) external pure returns (uint256);
}

/// Incremental Poseidon Merkle tree that takes leaves two at a time (a transaction's two outputs
/// share one insertion, halving the hashing per leaf) and remembers the last ROOT_HISTORY_SIZE
/// roots in a ring. One "insertion" = one pair of leaves = one new root.
abstract contract MerkleTreeWithHistory {
    uint256 public constant FIELD_SIZE =
        21888242871839275222246405745257275088548364400416034343698204186575808495617;
    uint32 public constant ROOT_HISTORY_SIZE = 100;

    IHasher public immutable hasher;
    uint32 public immutable levels;

    /// filledSubtrees[i]: the latest left node at height i, for hashing with a later right node.
    mapping(uint256 => uint256) public filledSubtrees;
    mapping(uint256 => uint256) public roots;
    uint32 public currentRootIndex;
    uint32 public nextIndex;

    error MerkleTreeFull();
    error InvalidTreeDepth();

    constructor(uint32 _levels, IHasher _hasher) {
        if (_levels == 0 || _levels >= 32) revert InvalidTreeDepth();
        levels = _levels;
        hasher = _hasher;
        for (uint32 i = 1; i < _levels; i++) {
            filledSubtrees[i] = MerkleZeros.at(i);
        }
        roots[0] = MerkleZeros.at(_levels);
    }

    /// Root of an empty subtree of height i (empty leaf = 0); generated constants, see MerkleZeros.
    function zeros(uint256 i) public pure returns (uint256) {
        return MerkleZeros.at(i);
    }

    function hashLeftRight(uint256 left, uint256 right) public view returns (uint256) {
        return hasher.poseidon([left, right]);
    }

    /// Appends two leaves at nextIndex (always even) and pushes the new root into the ring.
    function _insertPair(uint256 leftLeaf, uint256 rightLeaf) internal returns (uint32 index) {
        uint32 _nextIndex = nextIndex;
        if (_nextIndex + 2 > uint32(2) ** levels) revert MerkleTreeFull();
        uint32 currentIndex = _nextIndex / 2;
        uint256 node = hashLeftRight(leftLeaf, rightLeaf);
        for (uint32 i = 1; i < levels; i++) {
            uint256 left;
            uint256 right;
            if (currentIndex % 2 == 0) {
                left = node;
                right = MerkleZeros.at(i);
                filledSubtrees[i] = node;
            } else {
                left = filledSubtrees[i];
                right = node;
            }
            node = hashLeftRight(left, right);
            currentIndex /= 2;
        }
        uint32 newRootIndex = (currentRootIndex + 1) % ROOT_HISTORY_SIZE;
        currentRootIndex = newRootIndex;
        roots[newRootIndex] = node;
        nextIndex = _nextIndex + 2;
        return _nextIndex;
    }

    /// True for the current root and the 99 before it; 0 is never a root (empty ring slots are 0).
    function isKnownRoot(uint256 root) public view returns (bool) {
        if (root == 0) return false;
        uint32 i = currentRootIndex;
        for (uint32 n = 0; n < ROOT_HISTORY_SIZE; n++) {
            if (roots[i] == root) return true;
            i = i == 0 ? ROOT_HISTORY_SIZE - 1 : i - 1;
        }
        return false;
    }

    function getLastRoot() public view returns (uint256) {
        return roots[currentRootIndex];
    }
}
