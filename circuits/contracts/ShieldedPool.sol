// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IHasher, MerkleTreeWithHistory} from "./MerkleTreeWithHistory.sol";

interface IGroth16Verifier {
    function verifyProof(
        uint256[2] calldata a,
        uint256[2][2] calldata b,
        uint256[2] calldata c,
        uint256[8] calldata publicSignals
    ) external view returns (bool);
}

interface IERC20Minimal {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function balanceOf(address account) external view returns (uint256);
}

/// Shielded pool: one `transact` shields (extAmount > 0), transfers (0) and unshields (< 0) native
/// ETH (token = address(0)) or any ERC-20, proved by a 2x2 JoinSplit Groth16 proof.
contract ShieldedPool is MerkleTreeWithHistory {
    uint256 public constant MAX_AMOUNT = 2 ** 128;

    struct ExtData {
        address token;
        address recipient;
        int256 extAmount;
        address relayer;
        uint256 fee;
        uint256 deadline;
        bytes[2] encryptedNotesRecipient;
        bytes[2] encryptedNotesSender;
    }

    struct Proof {
        uint256[2] a;
        uint256[2][2] b;
        uint256[2] c;
        uint256 root;
        uint256[2] inputNullifiers;
        uint256[2] outputCommitments;
    }

    IGroth16Verifier public immutable verifier;
    mapping(uint256 => bool) public nullifierSpent;
    /// Transient (EIP-1153): the lock costs ~200 gas instead of two storage writes.
    bool private transient locked;

    event NewCommitment(
        uint256 indexed commitment, uint256 index, bytes encryptedNoteRecipient, bytes encryptedNoteSender
    );
    event NewNullifier(uint256 indexed nullifier);

    error Reentrancy();
    error Expired();
    error AmountTooLarge();
    error FieldOverflow();
    error UnknownRoot();
    error NullifierAlreadySpent();
    error InvalidProof();
    error InvalidEthValue();
    error InvalidRecipient();
    error TransferFailed();
    error UnsupportedToken();

    modifier nonReentrant() {
        if (locked) revert Reentrancy();
        locked = true;
        _;
        locked = false;
    }

    constructor(IGroth16Verifier _verifier, IHasher _hasher, uint32 _levels) MerkleTreeWithHistory(_levels, _hasher) {
        verifier = _verifier;
    }

    function transact(Proof calldata proof, ExtData calldata ext) external payable nonReentrant {
        if (block.timestamp > ext.deadline) revert Expired();
        if (ext.fee >= MAX_AMOUNT || ext.extAmount >= int256(MAX_AMOUNT) || ext.extAmount <= -int256(MAX_AMOUNT)) {
            revert AmountTooLarge();
        }
        // A value >= p would alias another field element inside the circuit: a nullifier + p
        // would be a "new" nullifier for an already spent note.
        _checkField(proof.root);
        for (uint256 i = 0; i < 2; i++) {
            _checkField(proof.inputNullifiers[i]);
            _checkField(proof.outputCommitments[i]);
        }
        if (!isKnownRoot(proof.root)) revert UnknownRoot();
        for (uint256 i = 0; i < 2; i++) {
            if (nullifierSpent[proof.inputNullifiers[i]]) revert NullifierAlreadySpent();
        }
        _verify(proof, ext);

        for (uint256 i = 0; i < 2; i++) {
            nullifierSpent[proof.inputNullifiers[i]] = true;
            emit NewNullifier(proof.inputNullifiers[i]);
        }
        uint32 index = _insertPair(proof.outputCommitments[0], proof.outputCommitments[1]);
        emit NewCommitment(
            proof.outputCommitments[0], index, ext.encryptedNotesRecipient[0], ext.encryptedNotesSender[0]
        );
        emit NewCommitment(
            proof.outputCommitments[1], index + 1, ext.encryptedNotesRecipient[1], ext.encryptedNotesSender[1]
        );
        _settle(ext);
    }

    /// keccak256(abi.encode(chainId, pool, extData)) mod p — binds the proof to this chain and
    /// this deployment as well as to every external field.
    function hashExtData(ExtData calldata ext) public view returns (uint256) {
        return uint256(keccak256(abi.encode(block.chainid, address(this), ext))) % FIELD_SIZE;
    }

    /// extAmount - fee as a field element (negative values wrap to p - |x|, as in the circuit).
    function calculatePublicAmount(int256 extAmount, uint256 fee) public pure returns (uint256) {
        int256 publicAmount = extAmount - int256(fee);
        return publicAmount >= 0 ? uint256(publicAmount) : FIELD_SIZE - uint256(-publicAmount);
    }

    function _verify(Proof calldata proof, ExtData calldata ext) private view {
        uint256[8] memory signals = [
            proof.root,
            calculatePublicAmount(ext.extAmount, ext.fee),
            hashExtData(ext),
            uint256(uint160(ext.token)),
            proof.inputNullifiers[0],
            proof.inputNullifiers[1],
            proof.outputCommitments[0],
            proof.outputCommitments[1]
        ];
        if (!verifier.verifyProof(proof.a, proof.b, proof.c, signals)) revert InvalidProof();
    }

    /// Moves the public side of the transaction: pulls a deposit, pays a withdrawal and the fee.
    function _settle(ExtData calldata ext) private {
        if (ext.extAmount > 0) {
            uint256 amount = uint256(ext.extAmount);
            if (ext.token == address(0)) {
                if (msg.value != amount) revert InvalidEthValue();
            } else {
                if (msg.value != 0) revert InvalidEthValue();
                // Without code, balanceOf would revert with no reason and transferFrom "succeed".
                if (ext.token.code.length == 0) revert UnsupportedToken();
                uint256 before = IERC20Minimal(ext.token).balanceOf(address(this));
                _callToken(ext.token, abi.encodeCall(IERC20Minimal.transferFrom, (msg.sender, address(this), amount)));
                // A fee-on-transfer or rebasing token would credit notes the pool does not hold.
                if (IERC20Minimal(ext.token).balanceOf(address(this)) - before != amount) revert UnsupportedToken();
            }
        } else {
            if (msg.value != 0) revert InvalidEthValue();
            if (ext.extAmount < 0) {
                if (ext.recipient == address(0)) revert InvalidRecipient();
                _pay(ext.token, ext.recipient, uint256(-ext.extAmount));
            }
        }
        if (ext.fee > 0) _pay(ext.token, ext.relayer, ext.fee);
    }

    function _pay(address token, address to, uint256 amount) private {
        if (token == address(0)) {
            (bool ok,) = to.call{value: amount}("");
            if (!ok) revert TransferFailed();
        } else {
            _callToken(token, abi.encodeCall(IERC20Minimal.transfer, (to, amount)));
        }
    }

    /// Accepts tokens that return nothing as well as those returning true.
    function _callToken(address token, bytes memory data) private {
        if (token.code.length == 0) revert TransferFailed();
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok || (ret.length != 0 && !abi.decode(ret, (bool)))) revert TransferFailed();
    }

    function _checkField(uint256 value) private pure {
        if (value >= FIELD_SIZE) revert FieldOverflow();
    }
}
