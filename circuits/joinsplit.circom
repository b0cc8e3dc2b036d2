pragma circom 2.1.0;

// Nova-style JoinSplit: spends nIns notes and creates nOuts notes of one token.
// Note commitment = Poseidon(amount, pubkey, blinding, token), pubkey = Poseidon(spendingKey),
// nullifier = Poseidon(commitment, leafIndex, Poseidon(spendingKey, commitment, leafIndex)).
// Field arithmetic for the balance is deliberate (as in Tornado Nova): publicAmount encodes a
// withdrawal as p - amount, and the 128-bit range checks on every note amount keep the sums
// far from wrapping around the field.

include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/comparators.circom";
include "circomlib/circuits/switcher.circom";

// Root of a Poseidon Merkle tree, walking up from a leaf; bit i of the leaf index says whether
// the node at level i is a right child (1) or a left child (0).
template MerkleRoot(levels) {
    signal input leaf;
    signal input indexBits[levels];
    signal input siblings[levels];
    signal output root;

    component order[levels];
    component hash[levels];
    signal node[levels + 1];
    node[0] <== leaf;
    for (var i = 0; i < levels; i++) {
        order[i] = Switcher();
        order[i].sel <== indexBits[i];
        order[i].L <== node[i];
        order[i].R <== siblings[i];
        hash[i] = Poseidon(2);
        hash[i].inputs[0] <== order[i].outL;
        hash[i].inputs[1] <== order[i].outR;
        node[i + 1] <== hash[i].out;
    }
    root <== node[levels];
}

template NoteCommitment() {
    signal input amount;
    signal input pubkey;
    signal input blinding;
    signal input token;
    signal output commitment;

    component hash = Poseidon(4);
    hash.inputs[0] <== amount;
    hash.inputs[1] <== pubkey;
    hash.inputs[2] <== blinding;
    hash.inputs[3] <== token;
    commitment <== hash.out;
}

template JoinSplit(levels, nIns, nOuts) {
    // Public inputs, in the order the verifier receives them.
    signal input root;
    signal input publicAmount;
    signal input extDataHash;
    signal input token;
    signal input inputNullifier[nIns];
    signal input outputCommitment[nOuts];

    // Private inputs.
    signal input inAmount[nIns];
    signal input inSpendingKey[nIns];
    signal input inBlinding[nIns];
    signal input inLeafIndex[nIns];
    signal input inPathElements[nIns][levels];
    signal input outAmount[nOuts];
    signal input outPubkey[nOuts];
    signal input outBlinding[nOuts];

    component inPubkey[nIns];
    component inCommitment[nIns];
    component inSignature[nIns];
    component inNullifier[nIns];
    component inIndexBits[nIns];
    component inRange[nIns];
    component inTree[nIns];
    component inRootCheck[nIns];
    var sumIns = 0;

    for (var i = 0; i < nIns; i++) {
        inPubkey[i] = Poseidon(1);
        inPubkey[i].inputs[0] <== inSpendingKey[i];

        inCommitment[i] = NoteCommitment();
        inCommitment[i].amount <== inAmount[i];
        inCommitment[i].pubkey <== inPubkey[i].out;
        inCommitment[i].blinding <== inBlinding[i];
        inCommitment[i].token <== token;

        // Only the owner of the spending key can produce this value, so only they can derive
        // the nullifier; binding the leaf index makes every leaf's nullifier unique.
        inSignature[i] = Poseidon(3);
        inSignature[i].inputs[0] <== inSpendingKey[i];
        inSignature[i].inputs[1] <== inCommitment[i].commitment;
        inSignature[i].inputs[2] <== inLeafIndex[i];

        inNullifier[i] = Poseidon(3);
        inNullifier[i].inputs[0] <== inCommitment[i].commitment;
        inNullifier[i].inputs[1] <== inLeafIndex[i];
        inNullifier[i].inputs[2] <== inSignature[i].out;
        inNullifier[i].out === inputNullifier[i];

        // Num2Bits(levels) also pins the leaf index below 2^levels.
        inIndexBits[i] = Num2Bits(levels);
        inIndexBits[i].in <== inLeafIndex[i];

        inTree[i] = MerkleRoot(levels);
        inTree[i].leaf <== inCommitment[i].commitment;
        for (var j = 0; j < levels; j++) {
            inTree[i].indexBits[j] <== inIndexBits[i].out[j];
            inTree[i].siblings[j] <== inPathElements[i][j];
        }

        // A zero-amount (dummy) input needs no membership proof; any other input does.
        inRootCheck[i] = ForceEqualIfEnabled();
        inRootCheck[i].enabled <== inAmount[i];
        inRootCheck[i].in[0] <== root;
        inRootCheck[i].in[1] <== inTree[i].root;

        // Inputs were range-checked when created; checking again costs little and means the
        // balance equation never relies on that history.
        inRange[i] = Num2Bits(128);
        inRange[i].in <== inAmount[i];

        sumIns += inAmount[i];
    }

    component outCommitment[nOuts];
    component outRange[nOuts];
    var sumOuts = 0;
    for (var i = 0; i < nOuts; i++) {
        outCommitment[i] = NoteCommitment();
        outCommitment[i].amount <== outAmount[i];
        outCommitment[i].pubkey <== outPubkey[i];
        outCommitment[i].blinding <== outBlinding[i];
        outCommitment[i].token <== token;
        outCommitment[i].commitment === outputCommitment[i];

        outRange[i] = Num2Bits(128);
        outRange[i].in <== outAmount[i];

        sumOuts += outAmount[i];
    }

    // Two inputs with the same nullifier would spend one note twice in one transaction.
    component sameNullifier[nIns * (nIns - 1) / 2];
    var pair = 0;
    for (var i = 0; i < nIns - 1; i++) {
        for (var j = i + 1; j < nIns; j++) {
            sameNullifier[pair] = IsEqual();
            sameNullifier[pair].in[0] <== inputNullifier[i];
            sameNullifier[pair].in[1] <== inputNullifier[j];
            sameNullifier[pair].out === 0;
            pair++;
        }
    }

    sumIns + publicAmount === sumOuts;

    // extDataHash takes part in no other constraint; a quadratic constraint on it keeps it
    // bound to the proof whatever the optimiser does.
    signal extDataSquare <== extDataHash * extDataHash;
}
