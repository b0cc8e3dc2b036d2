// Preloaded into the Alto bundler (node --import): Alto always listens on 0.0.0.0 and has no
// host option, so force every TCP listener in that process onto the loopback interface.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  if (args[0] !== null && typeof args[0] === 'object') {
    if (args[0].path === undefined) args[0] = { ...args[0], host: '127.0.0.1' };
  } else if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    if (typeof args[1] === 'string') args[1] = '127.0.0.1';
    else args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
};
