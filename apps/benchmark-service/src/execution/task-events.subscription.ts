import { StreamSource, StreamSubscription } from '@cinetrace/bus';
import { ConsumerGroups, TaskEvent, TaskTopics } from '@cinetrace/contracts';
import { isTransientStoreError } from '@cinetrace/persistence';
import { Provider } from '@nestjs/common';
import { TaskEventsHandler } from '../runs/task-events.handler';

/** Where benchmark-service reads task events from: the Kafka topic, or the all-in-one process's streams. */
export type TaskEventsSource = StreamSource;

/** Consumes task events from application start to shutdown. */
export function taskEventsSubscription(source: TaskEventsSource): Provider {
  return {
    provide: StreamSubscription,
    inject: [TaskEventsHandler],
    useFactory: (handler: TaskEventsHandler) =>
      new StreamSubscription<TaskEvent>(source, {
        groupId: ConsumerGroups.TaskEvents,
        topic: TaskTopics.TaskEvents,
        deadLetterTopic: TaskTopics.TaskEventsDeadLetter,
        isTransient: isTransientStoreError,
        handle: handler.handle,
      }),
  };
}
