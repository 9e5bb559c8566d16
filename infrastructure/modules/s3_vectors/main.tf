# The S3 Vectors resources of the deployment, in a module of their own: the AWS provider has
# aws_s3vectors_* since 6.24 and the index's metadata_configuration since later 6.x releases.
#
# memory: the vector bucket of the memory backend's own searches (memory URL vector_bucket); the
#         application creates one index per tenant, kind and embedding model in it (../../vectors.tf).
# kb:     the Bedrock Knowledge Base over the fact documents and its vector store: one index,
#         cosine (its role and data source: ../../knowledge_base.tf).
# Both are encrypted with the memory key (../../kms.tf lets the S3 Vectors indexing service use it).

resource "aws_s3vectors_vector_bucket" "memory" {
  vector_bucket_name = "${var.table_prefix}-memory-vectors"

  encryption_configuration {
    sse_type    = "aws:kms"
    kms_key_arn = var.kms_key_arn
  }
}

resource "aws_s3vectors_vector_bucket" "kb" {
  vector_bucket_name = "${var.table_prefix}-kb-vectors"

  encryption_configuration {
    sse_type    = "aws:kms"
    kms_key_arn = var.kms_key_arn
  }
}

resource "aws_s3vectors_index" "kb" {
  index_name         = "${var.table_prefix}-facts"
  vector_bucket_name = aws_s3vectors_vector_bucket.kb.vector_bucket_name
  data_type          = "float32"
  dimension          = var.embedding_dimensions
  distance_metric    = "cosine"

  # Bedrock's own chunk text and metadata blob are large and never filtered on; keeping them
  # non-filterable leaves the filterable budget to tenant / domain / fact_id
  metadata_configuration {
    non_filterable_metadata_keys = ["AMAZON_BEDROCK_TEXT", "AMAZON_BEDROCK_METADATA"]
  }
}

# Bedrock checks the role's permissions when the Knowledge Base is created: wait for its policy
# (the policy names this module's index, so the module as a whole cannot depend on it).
resource "terraform_data" "role_ready" {
  input = var.role_policy_id
}

resource "aws_bedrockagent_knowledge_base" "facts" {
  name     = "${var.table_prefix}-facts"
  role_arn = var.role_arn

  knowledge_base_configuration {
    type = "VECTOR"
    vector_knowledge_base_configuration {
      embedding_model_arn = var.embedding_model_arn
      embedding_model_configuration {
        bedrock_embedding_model_configuration {
          dimensions          = var.embedding_dimensions
          embedding_data_type = "FLOAT32"
        }
      }
    }
  }

  storage_configuration {
    type = "S3_VECTORS"
    s3_vectors_configuration {
      index_arn = aws_s3vectors_index.kb.index_arn
    }
  }

  depends_on = [terraform_data.role_ready]
}
