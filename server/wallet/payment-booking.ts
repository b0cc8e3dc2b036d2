// The booking lives in shared/ (pure: the wallet page books an unsaid payment the same way); the server's modules keep this path.
export * from '../shared/wallet/payment-booking.js';
