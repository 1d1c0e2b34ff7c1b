import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** Receipts only serve `Prefer: wait`, which gives up after 10 s: an hour's worth is plenty. */
const KEEP_MS = 60 * 60 * 1000;
const EVERY_MS = 5 * 60 * 1000;

@Injectable()
export class ReceiptPruner implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.prune(), EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async prune(): Promise<void> {
    const placeholder = this.dataSource.options.type === 'postgres' ? '$1' : '?';
    await this.dataSource.query(`DELETE FROM trace_receipts WHERE stored_at < ${placeholder}`, [Date.now() - KEEP_MS]).catch(() => undefined);
  }
}
