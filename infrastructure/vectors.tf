# The vector bucket of the memory backend's own searches (memory URL vector_bucket): episodes, and
# facts the Knowledge Base cannot answer for, are searched here and only the k hits are read back
# from DynamoDB, which stays the record. The application creates one index per tenant, kind and
# embedding model on first write (memory/backends/aws/vectors.py, `index_name`):
#   <slug of table_prefix>-<ep|fa>-<first 12 hex of sha256(tenant)>-<8 hex of sha256(model)>
# so a tenant role can be confined to its own indexes by name (iam.tf), and a re-embedding switch
# or an erasure drops whole indexes. Encrypted with the memory key (kms.tf grants the S3 Vectors
# indexing service the use it needs).

locals {
  # memory.backends.aws.vectors.slug: lowercase, runs of other characters become "-", at most 20
  vector_slug_raw   = substr(trim(replace(lower(var.table_prefix), "/[^a-z0-9]+/", "-"), "-"), 0, 20)
  vector_index_slug = local.vector_slug_raw == "" ? "cma" : local.vector_slug_raw
  vector_index_arn  = "arn:${data.aws_partition.current.partition}:s3vectors:${var.region}:${data.aws_caller_identity.current.account_id}:bucket/${aws_s3vectors_vector_bucket.memory.vector_bucket_name}/index"
}

resource "aws_s3vectors_vector_bucket" "memory" {
  vector_bucket_name = "${var.table_prefix}-memory-vectors"

  encryption_configuration {
    sse_type    = "aws:kms"
    kms_key_arn = aws_kms_key.memory.arn
  }
}
