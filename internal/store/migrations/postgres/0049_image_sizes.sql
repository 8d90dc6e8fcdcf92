-- An uploaded image's size in pixels, read when it is stored (hosted pages
-- give their images width, height and srcset from it); NULL for uploads
-- stored before, and for other kinds. Keep in step with the other
-- dialect's 0049_image_sizes.sql.
ALTER TABLE blobs ADD COLUMN width integer;
ALTER TABLE blobs ADD COLUMN height integer;
