// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestToken} from "../TestToken.sol";

/// Test-only: burns 1% of every transferFrom, like fee-on-transfer tokens the pool must refuse.
contract FeeOnTransferToken is TestToken {
    constructor() TestToken("Fee Token", "FEE") {}

    function transferFrom(address from, address to, uint256 amount) external override returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= amount, "allowance");
        allowance[from][msg.sender] = allowed - amount;
        require(balanceOf[from] >= amount, "balance");
        uint256 fee = amount / 100;
        balanceOf[from] -= amount;
        balanceOf[to] += amount - fee;
        totalSupply -= fee;
        emit Transfer(from, to, amount - fee);
        return true;
    }
}
