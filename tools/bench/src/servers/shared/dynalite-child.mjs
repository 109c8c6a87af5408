// dynalite on a free port of 127.0.0.1, its data in memory; the port goes to the parent over IPC.
import dynalite from 'dynalite';

const server = dynalite({ createTableMs: 0 });
server.listen(0, '127.0.0.1', () => process.send?.(server.address().port));
process.on('disconnect', () => process.exit(0));
