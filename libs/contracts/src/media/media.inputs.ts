import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUrl, Matches, MaxLength } from 'class-validator';

export const MEDIA_URL_MAX = 2048;
/** A video, image or audio media type without parameters. */
export const MEDIA_TYPE_PATTERN = /^(video|image|audio)\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** `POST /api/v1/media` as JSON: a copy of the media at `url`, fetched under the outbound rules. */
export class FetchMediaInput {
  @ApiProperty({ format: 'uri', maxLength: MEDIA_URL_MAX, example: 'https://cdn.example.com/renders/fox-at-dawn.mp4' })
  @IsString()
  @MaxLength(MEDIA_URL_MAX)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'must be an http(s) URL' })
  url: string;

  @ApiPropertyOptional({
    description: "The media's type, when the URL's answer does not say it (`application/octet-stream`)",
    example: 'video/mp4',
    pattern: MEDIA_TYPE_PATTERN.source,
  })
  @IsOptional()
  @Matches(MEDIA_TYPE_PATTERN, { message: 'must be a video/*, image/* or audio/* media type' })
  contentType?: string;
}
