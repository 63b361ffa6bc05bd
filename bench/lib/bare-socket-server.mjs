// The baseline of bench/socket-memory.mjs: Socket.IO alone (the version Pluma uses, websocket transport,
// same options as socket-server.ts) on a bare HTTP server, every socket in a room of its own as Pluma's are.
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const server = createServer((req, res) => res.end('{"status":"ok"}'));
const io = new Server(server, { path: '/socket.io', transports: ['websocket'], serveClient: false, maxHttpBufferSize: 16 * 1024 });
io.on('connection', (socket) => void socket.join(`user-${socket.id}`));
server.listen(Number(process.env.PORT), process.env.HOST);
process.on('SIGTERM', () => process.exit(0));
