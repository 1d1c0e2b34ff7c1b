import { StreamSource, StreamSubscription } from '@cinetrace/bus';
import { TaskEvent, TaskTopics } from '@cinetrace/contracts';
import { isTransientStoreError } from '@cinetrace/persistence';
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { TaskEventsHandler } from '../runs/task-events.handler';

/** Where benchmark-service reads task events from: the Kafka topic, or the all-in-one process's streams. */
export type TaskEventsSource = StreamSource;
export const TASK_EVENTS_SOURCE = Symbol('TASK_EVENTS_SOURCE');

/** Consumes task events from application start to shutdown. */
@Injectable()
export class TaskEventsSubscription implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly subscription: StreamSubscription<TaskEvent>;

  constructor(@Inject(TASK_EVENTS_SOURCE) source: TaskEventsSource, handler: TaskEventsHandler) {
    this.subscription = new StreamSubscription(source, {
      groupId: 'benchmark-service',
      topic: TaskTopics.TaskEvents,
      deadLetterTopic: TaskTopics.TaskEventsDeadLetter,
      isTransient: isTransientStoreError,
      handle: handler.handle,
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.subscription.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.subscription.stop();
  }
}
