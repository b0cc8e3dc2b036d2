// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Test-only: a payout recipient (unshield recipient or relayer) that either refuses ETH or, once
/// armed, calls back into the pool with a prepared `transact` while the pool is paying it, and
/// records how that inner call ended. Never deployed by the devnet or in production.
contract HostileReceiver {
    bool public refuse;
    address public target;
    bytes public reentryCall;
    bool public reentered;
    bool public reentrySucceeded;
    bytes public reentryRevert;

    function setRefuse(bool refuse_) external {
        refuse = refuse_;
    }

    function arm(address target_, bytes calldata call_) external {
        target = target_;
        reentryCall = call_;
    }

    receive() external payable {
        if (refuse) revert("HostileReceiver: refusing ETH");
        if (reentryCall.length == 0 || reentered) return;
        reentered = true;
        (bool ok, bytes memory ret) = target.call(reentryCall);
        reentrySucceeded = ok;
        reentryRevert = ret;
    }
}
