pragma circom 2.1.0;

include "joinsplit.circom";

// 2 inputs x 2 outputs over a depth-20 tree (about a million notes).
component main {public [root, publicAmount, extDataHash, token, inputNullifier, outputCommitment]} = JoinSplit(20, 2, 2);
