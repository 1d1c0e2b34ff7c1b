import { Logger } from '@nestjs/common';
import { logLevel } from 'kafkajs';
import { kafkaLogCreator } from './kafka-log-creator';

describe('kafkaLogCreator', () => {
  const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  afterEach(() => jest.clearAllMocks());
  afterAll(() => jest.restoreAllMocks());
  const log = kafkaLogCreator(logLevel.ERROR);
  const entry = (message: string, err?: string) => ({ namespace: 'Connection', level: logLevel.ERROR, label: 'ERROR', log: { message, error: err, timestamp: '' } });

  it('keeps an error an error, on one line without a stack', () => {
    log(entry('Response Produce(key: 0, version: 7)', 'The request included a message larger than the max message size the server will accept'));
    expect(error).toHaveBeenCalledWith('Connection: Response Produce(key: 0, version: 7) (The request included a message larger than the max message size the server will accept)');
  });

  it('takes an error answer kafkajs retries itself (no leader yet, coordinator loading) as a warning', () => {
    log(entry('Response Produce(key: 0, version: 7)', 'This server is not the leader for that topic-partition'));
    log(entry('Response GroupCoordinator(key: 10, version: 2)', 'The group coordinator is not available'));
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith('Connection: Response Produce(key: 0, version: 7) (This server is not the leader for that topic-partition)');
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('takes the broker refusing to create a topic another app created first as a debug line, not an error at every start', () => {
    log(entry('Response CreateTopics(key: 19, version: 3)', 'Topic creation errors'));
    expect(error).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalledWith('Connection: Response CreateTopics(key: 19, version: 3) (Topic creation errors)');
  });
});
