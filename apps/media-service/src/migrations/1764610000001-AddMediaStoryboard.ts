import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A media's storyboard, once computed (its keyframe instants, or why it could not be made):
 * JSON text on the media row, read with the row by the storyboard route. Same SQL on both stores.
 */
export class AddMediaStoryboard1764610000001 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE media ADD COLUMN storyboard text NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE media DROP COLUMN storyboard');
  }
}
