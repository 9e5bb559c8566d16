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
  vector_index_arn  = "arn:${data.aws_partition.current.partition}:s3vectors:${var.region}:${data.aws_caller_identity.current.account_id}:bucket/${module.s3_vectors.memory_bucket_name}/index"
}

# What needs the AWS provider >= 6.28 lives in modules/s3_vectors: this bucket, the Knowledge
# Base's vector bucket and index, and the Knowledge Base itself (its S3_VECTORS storage). Keeping
# them in a module of their own lets CI validate everything else against the provider it has
# (scripts/terraform_check.py).
module "s3_vectors" {
  source = "./modules/s3_vectors"

  table_prefix         = var.table_prefix
  kms_key_arn          = aws_kms_key.memory.arn
  embedding_dimensions = var.embedding_dimensions
  embedding_model_arn  = local.embedding_model_arn
  role_arn             = aws_iam_role.kb.arn
  role_policy_id       = aws_iam_role_policy.kb.id
}
